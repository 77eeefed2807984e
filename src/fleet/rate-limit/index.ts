/** fleet/rate-limit/: a rate limit per connector that every worker of a fleet shares, through Redis or PostgreSQL. */
export { FleetRateLimiter, RATE_LIMIT_PREFIX, type FleetRateLimiterOptions } from './limiter.js';
export { PostgresRateLimiter, RATE_LIMIT_SCHEMA, type PostgresRateLimiterOptions } from './postgres-limiter.js';
