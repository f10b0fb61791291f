export { commandText, flattenCommands, NOWHERE, numberCommands, parseCommandLine } from './parse.js';
export { parseTopCommandLine } from './parse-cache.js';
export type { CommandRow, ParsedCommand, Place, Via } from './types.js';
export type { DockerRun } from './remote.js';
export { parseDockerExec } from './remote.js';
