import { z } from 'zod';
import { ACTION_KINDS } from '../classify/kinds.js';

/**
 * A rule file: what retrace knows about one serving framework (or one family of plain services, or
 * the failures every stack shares), as data a user can add to without forking. One file per
 * framework; every pattern carries examples that must and must not match, checked by `npm test`
 * and by `retrace rules check`.
 */

const regexSource = z.string().min(1, 'an empty pattern matches everything');
const examples = z
  .object({
    match: z.array(z.string()).default([]),
    no_match: z.array(z.string()).default([]),
  })
  .strict()
  .default({ match: [], no_match: [] });

const namePattern = z.union([
  regexSource,
  z.object({ pattern: regexSource, case_sensitive: z.boolean().default(false) }).strict(),
]);

export const EFFECTS = ['negative', 'failure', 'success', 'ready', 'positive', 'timeout'] as const;

export const signatureSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'signature ids are lower-case words joined by dashes'),
    description: z.string().min(1),
    /** negative: a probe's answer is no; failure: the step broke; success/ready: it did its job; positive: yes. */
    effect: z.enum(EFFECTS),
    /** The action kinds whose outcome this line decides; for other kinds it is evidence only. */
    decides: z.array(z.enum(ACTION_KINDS)).min(1),
    /** Cheap literal prefilter: the pattern runs only on lines holding one of these (case-insensitive). */
    keywords: z.array(z.string().min(1)).min(1),
    pattern: regexSource,
    case_sensitive: z.boolean().default(true),
    /** One-line labels; the first whose `{N}` groups all matched is used. `{line}`, `{match}`, `{seconds:N}` too. */
    label: z.union([z.string(), z.array(z.string()).min(1)]),
    /** Lower speaks first, both for the meaning of a line and for the reason of a verdict. */
    priority: z.number().int().min(0).max(1000).default(100),
    /** A catch-all (an engine that "failed to start"): dropped from a reason when a more precise one is there. */
    generic: z.boolean().default(false),
    examples,
  })
  .strict();

export const versionSchema = z
  .object({
    component: z.string().regex(/^[a-z0-9_]+$/),
    label: z.string().min(1),
    /** `{START}`, `{SEP}` and `{VERSION}` expand to the shared pieces of a version line; group 1 is the version. */
    pattern: regexSource,
    case_sensitive: z.boolean().default(false),
    /** Shown in a verdict's reason (framework and transformers versions are; CUDA only when kernels are the issue). */
    in_reason: z.enum(['always', 'kernel', 'never']).default('never'),
    examples,
  })
  .strict();

export const launcherSchema = z
  .object({
    /** The program, as a whole-name pattern (`vllm`, `trtllm-serve`, `llama-server`). */
    program: regexSource.optional(),
    /** The first argument the program needs to be this launcher (`serve`). */
    subcommand: z.string().optional(),
    /** `python -m MODULE` (a whole-name pattern). */
    module: regexSource.optional(),
    /** `python SCRIPT` (a pattern on the script's file name). */
    script: regexSource.optional(),
    /** Where the model may stand as a positional argument, counted in the arguments after the program. */
    model_position: z.number().int().min(0).optional(),
    examples,
  })
  .strict()
  .refine((l) => [l.program, l.module, l.script].filter(Boolean).length === 1, 'a launcher names exactly one of program, module or script');

export const ruleFileSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'ids are lower-case words joined by dashes'),
    /** framework: a serving stack; service: a plain process that listens on a port; generic: shared failures and facts. */
    kind: z.enum(['framework', 'service', 'generic']),
    label: z.string().min(1),
    description: z.string().min(1),
    /** Which framework a name that fits several is taken for: lower first (NIM before the vLLM it wraps). */
    precedence: z.number().int().min(0).max(1000).default(100),
    /** How its name shows in image references, package names, program names and prose. */
    names: z.array(namePattern).default([]),
    packages: z.array(z.string().min(1)).default([]),
    /** Image repositories known to hold it (documentation; its names are what match). */
    images: z.array(z.string().min(1)).default([]),
    launch: z.array(launcherSchema).default([]),
    /** Steps that build what it serves (an engine, converted weights): `trtllm-build`, `quantize.py`, `mlc_llm convert_weight`. */
    build: z.array(launcherSchema).default([]),
    /** Programs that run the model once without serving it (`llama-bench`, `llama-cli`): a try of the build they belong to, decided by their output. */
    probe: z.array(launcherSchema).default([]),
    /** Its models are pulled and run by tag (`ollama pull qwen2.5-coder:32b`): a candidate is the framework with that model. */
    candidate_by_model: z.boolean().default(false),
    options: z
      .object({
        model: z.array(z.string()).default([]),
        served_name: z.array(z.string()).default([]),
        port: z.array(z.string()).default([]),
        /**
         * The flags that tell two launches of one candidate apart (`--tp 8` vs `--tp 16 --nnodes 2`), by label;
         * an UPPER_CASE name is an environment variable (`OLLAMA_KV_CACHE_TYPE`, `NIM_MODEL_PROFILE`).
         */
        shape: z.record(z.string(), z.array(z.string()).min(1)).default({}),
        /**
         * Options that change what the deployment is (context length, speculative decoding, engine and
         * batch sizes, KV cache type, where the other nodes are): changed even on a server that worked —
         * a deliberate comparison — they make another approach. Any other option counts only as the fix
         * after a failure (`-fa`, `--workers 4` on a working server are tuning).
         */
        defining: z.array(z.string()).default([]),
        /**
         * Options whose value names a whole preset the stack ships (a NIM profile,
         * `NIM_MODEL_PROFILE=tensorrt_llm-l40s-fp8-tp1-throughput`): an approach that sets one is called
         * by that value, as readers call it.
         */
        presets: z.array(z.string()).default([]),
        /**
         * Files the server reads its settings from when they sit in its working directory or are
         * mounted into its container (TabbyAPI's `config.yml`): their `key: value` lines that name one
         * of its options (`cache_mode: Q4` is `--cache_mode Q4`) are part of each launch's setting.
         */
        config_files: z.array(z.string().min(1)).default([]),
      })
      .strict()
      .default({ model: [], served_name: [], port: [], shape: {}, defining: [], presets: [], config_files: [] }),
    health: z
      .object({ paths: z.array(z.string().startsWith('/')).default([]), port: z.number().int().min(1).max(65535).nullable().default(null) })
      .strict()
      .default({ paths: [], port: null }),
    versions: z.array(versionSchema).default([]),
    signatures: z.array(signatureSchema).default([]),
    examples,
  })
  .strict()
  .superRefine((file, ctx) => {
    if (file.kind !== 'generic' && file.names.length === 0) ctx.addIssue({ code: 'custom', path: ['names'], message: 'a framework or service needs at least one name pattern' });
  });

export type RuleFile = z.infer<typeof ruleFileSchema>;
export type SignatureRule = z.infer<typeof signatureSchema>;
export type VersionRule = z.infer<typeof versionSchema>;
export type LauncherRule = z.infer<typeof launcherSchema>;
