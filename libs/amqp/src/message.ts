import type { z } from 'zod';

/**
 * One definition per message type: its name in noun.verb form (also the queue name),
 * a version and a zod schema. Publishers and consumers share the definition, so the wire
 * shape has one source of truth.
 */
export interface MessageDefinition<S extends z.ZodType> {
  name: string;
  version: number;
  schema: S;
}

export function defineMessage<S extends z.ZodType>(name: string, version: number, schema: S): MessageDefinition<S> {
  return { name, version, schema };
}
