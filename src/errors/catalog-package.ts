import type { CatalogEntry } from './types.js';

/** P: shared recipes (call: from git and npm), recipe.lock, the store and grants (allow:). Owned by src/packages/. */
export const packageCodes = {
  P001: { template: '{problem}', class: 'invalid' },
  P002: {
    template: 'call "{source}" needs recipe.lock, and there is none from {dir} up; run `recipe deps install`',
    class: 'invalid',
  },
  P003: { template: 'package {key} is not in {lock}; run `recipe deps install`', class: 'invalid' },
  P004: {
    template: 'package {key} ({resolved}) is neither vendored nor in the store ({store}); run `recipe deps install`',
    class: 'invalid',
  },
  P005: {
    template:
      'package {key} in {where} hashes to {actual}, not {expected} as recipe.lock says (changed after locking); run `recipe deps verify`, then `recipe deps install`',
    class: 'invalid',
  },
  P006: { template: 'package {key} has no file {path}', class: 'invalid' },
  P007: {
    template: 'call "{path}" leaves package {key}: a relative call inside a package stays inside it',
    class: 'invalid',
  },
  P008: { template: 'cannot read {file}: {reason}', class: 'invalid' },
  P010: { template: 'git {command} failed for {url}: {reason}', class: 'config' },
  P011: { template: 'ref "{ref}" names no tag, branch or commit of {url}', class: 'config' },
  P012: { template: 'no tag of {url} satisfies "{range}" (tags named vX.Y.Z)', class: 'config' },
  P013: {
    template:
      'commit {commit} is not reachable from any branch or tag of {url} (an impostor commit, e.g. from a pull request of a fork); refusing it',
    class: 'config',
  },
  P014: {
    template:
      '{ref} of {url} moved from {old} to {new}, which does not descend from it; refusing (check the change, then pass --accept-moved)',
    class: 'config',
  },
  P015: {
    template:
      'recipe.lock lacks or differs for {what}, and --frozen (the default when CI=true) forbids changing it; run `recipe deps install` and commit recipe.lock',
    class: 'invalid',
  },
  P016: { template: 'no package in recipe.lock matches "{name}"', class: 'invalid' },
  P017: { template: 'no recipe found under {dir}', class: 'invalid' },
  P020: { template: 'npm {command} failed for {spec}: {reason}', class: 'config' },
  P030: {
    template: 'call to {key} writes {write}, which its allow: does not grant (granted: {granted})',
    class: 'invalid',
  },
  P031: { template: 'call to {key} reaches http host {host}, which its allow.http does not grant', class: 'invalid' },
  P032: {
    template: 'call to {key}: the called recipe declares secret {name}, which allow.secrets does not give it',
    class: 'invalid',
  },
  P033: {
    template:
      'refused {entity}.{action} from {key}: its grant does not allow this write (granted: {granted}); nothing was sent',
    class: 'run',
  },
  P034: {
    template: 'refused {entity}.{action} from {key}: its grant allows at most {max} writes; nothing was sent',
    class: 'run',
  },
  P035: {
    template: "allow.secrets gives {name} the caller's secret {from}, which the caller does not have",
    class: 'run',
  },
  P036: {
    template:
      "this worker's recipe.lock ({lock}: {actual}) differs from the one the job was submitted with ({expected}): it would call other package versions; deploy the same recipe.lock to every worker and run `recipe deps install --frozen` there, or submit again",
    class: 'invalid',
  },
} satisfies Record<string, CatalogEntry>;
