import type { SecretRule } from './rule.js';
import { COMMAND_SECRETS } from './patterns/commands.js';
import { NAMED_VALUES } from './patterns/named-values.js';
import { KEY_BLOCKS, VENDOR_TOKENS } from './patterns/vendors.js';

export type { SecretRule } from './rule.js';

/**
 * Every redaction rule, in the order that names a kind where two rules find the same secret:
 * key blocks and vendor shapes first (`HF_TOKEN=hf_…` is a huggingface-token), then secrets
 * placed by a command or a file format, then generic name = value rules.
 */
export const SECRET_RULES: readonly SecretRule[] = [...KEY_BLOCKS, ...VENDOR_TOKENS, ...COMMAND_SECRETS, ...NAMED_VALUES];
