/** Nest injection tokens for the platform's pieces (the classes themselves are used where they are classes). */
export const APP_CONFIG = Symbol('APP_CONFIG');
export const LOGGER = Symbol('LOGGER');
/** Identifies this process as a lease owner. */
export const INSTANCE_ID = Symbol('INSTANCE_ID');
/** The controllable sandbox clock, or null outside the sandbox. */
export const SANDBOX_CLOCK = Symbol('SANDBOX_CLOCK');
