const VERSION_FLAGS = new Set(['-V', '--version']);

/** Whether these arguments ask for the version and nothing else (`--version`, `-V`, said once or more). */
export function asksOnlyVersion(args: readonly string[]): boolean {
  return args.length > 0 && args.every((arg) => VERSION_FLAGS.has(arg));
}
