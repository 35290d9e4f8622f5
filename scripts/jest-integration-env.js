// Integration tests run against the real servers, isolated from development data:
// their own database, RabbitMQ vhost and Redis key prefix (created by scripts/setup.mjs --test).
// SVC_TEST_SUFFIX: the test environment of another checkout (see scripts/setup.mjs).
const suffix = /^[a-z0-9_]*$/.test(process.env.SVC_TEST_SUFFIX || '') ? process.env.SVC_TEST_SUFFIX || '' : '';
process.env.DATABASE_URL = process.env.TEST_DATABASE_URL || `postgresql://postgres@127.0.0.1:5432/svc_test${suffix}`;
process.env.REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379/0';
process.env.REDIS_KEY_PREFIX = process.env.TEST_REDIS_KEY_PREFIX || `svctest${suffix}:`;
process.env.AMQP_URL = process.env.TEST_AMQP_URL || `amqp://guest:guest@127.0.0.1:5672/svc_test${suffix}`;
process.env.NODE_ENV = 'test';
