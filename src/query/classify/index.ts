export { classifySession, SessionClassifier, type ActionRecord, type CallRecord, type ClassifiedSession, type CommandRecord } from './session.js';
export { ACTION_KINDS, OUTCOMES, type ActionKind, type Outcome } from './kinds.js';
export { RULES, applyRules, ruleByName } from './rules.js';
export { scanSignatures, signatureNamed, type SignatureHit } from './signatures.js';
export { describeFacts, extractFacts, reasonComponents, type VersionFact } from './facts.js';
export * from './names.js';
export { flagOfKey } from './config-file.js';
export { homeRelative } from './files.js';
