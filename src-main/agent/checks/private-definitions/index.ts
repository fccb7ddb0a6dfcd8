// The private definitions file: definitions of checks whose definition the server wiped, kept
// only on this machine. parse.ts reads the text; source.ts keeps it loaded while it is edited.
export { parsePrivateDefinitions, type DefinitionProblem, type ParsedDefinitions } from './parse.ts';
export type { PrivateDefinitionsState } from './state.ts';
export {
  noPrivateDefinitions,
  summarizePrivateDefinitions,
  type CheckRef,
  type PrivateDefinitionsSummary,
} from './summary.ts';
export {
  createPrivateDefinitionsSource,
  openPrivateDefinitions,
  privateDefinitionsDefaults,
  type PrivateDefinitionsOptions,
  type PrivateDefinitionsSource,
} from './source.ts';
