/** packages/: where a `call:` points (git, npm), fetching with the user's git/npm, the store, recipe.lock, grants. */
export * from './source.js';
export * from './grant.js';
export * from './lock.js';
export * from './locate.js';
export { hashDir, fileHashes, hashFiles, listFiles } from './dirhash.js';
export { storeRoot, storePath, putArchive } from './store.js';
export { lockHashOf, checkLockHash } from './lock-pin.js';
