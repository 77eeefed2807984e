/** fleet/rate-limit/: a rate limit per connector that every worker of a fleet shares, through Redis. */
export { FleetRateLimiter, RATE_LIMIT_PREFIX, type FleetRateLimiterOptions } from './limiter.js';
