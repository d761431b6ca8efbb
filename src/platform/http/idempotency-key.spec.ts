import 'reflect-metadata';
import { Post } from '@nestjs/common';
import { IDEMPOTENT_ROUTE, IdempotencyKey, IdempotentRoute, OnceByKey } from './idempotency-key';

describe('@IdempotentRoute()', () => {
  it('refuses a handler that takes no @IdempotencyKey() parameter, when the class is defined', () => {
    expect(() => {
      class Forgetful {
        @IdempotentRoute()
        @Post()
        create(): string {
          return 'ran without the key';
        }
      }
      return Forgetful;
    }).toThrow('@IdempotentRoute() on Forgetful.create, which takes no @IdempotencyKey() parameter');
  });

  it('marks a handler that runs its work through the parameter', () => {
    class Careful {
      @IdempotentRoute()
      @Post()
      create(@IdempotencyKey() once: OnceByKey) {
        return once(async () => 'ran once');
      }
    }
    expect(Reflect.getMetadata(IDEMPOTENT_ROUTE, Careful.prototype.create)).toBe(true);
  });
});
