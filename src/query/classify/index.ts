export { classifySession, SessionClassifier, type ActionRecord, type CallRecord, type ClassifiedSession, type CommandRecord } from './session.js';
export { ACTION_KINDS, OUTCOMES, type ActionKind, type Outcome } from './kinds.js';
export { RULES, applyRules, ruleByName } from './rules.js';
export { SIGNATURES, scanSignatures, type SignatureHit } from './signatures.js';
export { COMPONENTS, describeFacts, extractFacts, type VersionFact } from './facts.js';
export * from './names.js';
