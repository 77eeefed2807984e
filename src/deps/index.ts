/** deps/: what `recipe deps` does (install, update, vendor, verify) over packages/ and compile/. */
export { install, type InstallOptions, type InstallResult } from './install.js';
export { update, describeChange, footprintDiff, type UpdateOptions } from './update.js';
export { vendor } from './vendor.js';
export { verify, type VerifyProblem } from './verify.js';
