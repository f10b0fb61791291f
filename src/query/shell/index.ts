export { commandText, flattenCommands, NOWHERE, numberCommands, parseCommandLine } from './parse.js';
export type { CommandRow, ParsedCommand, Place, Via } from './types.js';
export type { DockerRun } from './remote.js';
