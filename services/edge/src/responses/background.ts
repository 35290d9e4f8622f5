import { ServiceError } from '@svc/errors';
import type { Redis } from '@svc/redis';
import type { AmqpClient } from '@svc/amqp';
import { RESPONSE_CANCEL_CHANNEL, responseRun, type ResponseRunJob } from '@svc/messages';

/**
 * The edge's side of background responses (spec: POST /v1/responses `background`): the turn goes
 * to the workers (response.run) once its response is stored `queued`; a cancel of a running turn
 * is announced over Redis pub/sub so the worker running it cuts its vendor call.
 */
export interface BackgroundQueue {
  enqueue(job: ResponseRunJob): Promise<void>;
  announceCancel(responseId: string): Promise<void>;
}

export function createBackgroundQueue(options: { amqp: Pick<AmqpClient, 'publish'>; redis: Redis; keyPrefix: string }): BackgroundQueue {
  return {
    async enqueue(job) {
      try {
        await options.amqp.publish(responseRun, job);
      } catch (error) {
        throw new ServiceError('conversations_unavailable', 'The background workers cannot be reached right now; the response was not queued. Please retry.', { cause: error });
      }
    },
    async announceCancel(responseId) {
      await options.redis.publish(`${options.keyPrefix}${RESPONSE_CANCEL_CHANNEL}`, responseId);
    },
  };
}
