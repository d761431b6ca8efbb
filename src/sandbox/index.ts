// Public API of the sandbox module (mounted only when SANDBOX=true).
export { SandboxModule } from './sandbox.module';
export { SandboxClockService } from './application/sandbox-clock.service';
