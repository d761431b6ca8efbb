/**
 * The node flags the service's processes run with: `npm start` and the Docker image start them so, the
 * benches start their worker so, and `npm run bench` the bench process, which runs their api
 * (docs/decisions.md, "The service runs with a 32 MiB young generation"). A larger semi-space lets the
 * short-lived objects of a batch (events read, documents staged, statements' rows) die before a scavenge
 * copies them: about 8% of the worker's CPU per settled row in the settlement bench, for about 60 MiB more
 * memory per process. test/e2e/service-node-flags.e2e.spec.ts keeps package.json's start and bench scripts
 * and the Dockerfile's CMD in step with this list.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];
