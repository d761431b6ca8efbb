/** Nest injection tokens for the platform's pieces (the classes themselves are used where they are classes). */
export const PLATFORM = Symbol('PLATFORM');
export const APP_CONFIG = Symbol('APP_CONFIG');
export const LOGGER = Symbol('LOGGER');
