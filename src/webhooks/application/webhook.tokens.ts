export const SECRET_BOX = Symbol('SECRET_BOX');
export const WEBHOOK_HTTP_CLIENT = Symbol('WEBHOOK_HTTP_CLIENT');
