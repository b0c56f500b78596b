/**
 * A bench's command line: number options (`--runs=3`), text options, on/off switches
 * (`--no-write`), each with its default. A number option that is not a number stops the bench
 * with its name, rather than running with NaN.
 */
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";

/** The options a bench takes. */
export type BenchArgSpec<N extends string, S extends string, O extends string, F extends string> = {
  /** Number options and their defaults. */
  numbers?: Record<N, number>;
  /** Text options and their defaults. */
  strings?: Record<S, string>;
  /** Text options with no default (undefined when not given). */
  optional?: readonly O[];
  /** Switches, off unless given. */
  flags?: readonly F[];
};

/** Parses `Deno.args` by `spec`: numbers as numbers, switches as booleans. */
export function benchArgs<
  N extends string = never,
  S extends string = never,
  O extends string = never,
  F extends string = never,
>(
  spec: BenchArgSpec<N, S, O, F>,
): Record<N, number> & Record<S, string> & Record<O, string | undefined> & Record<F, boolean> {
  const numbers: Record<string, number> = spec.numbers ?? {};
  const options: ParseArgsOptionsConfig = {};
  for (const [name, value] of Object.entries(numbers)) {
    options[name] = { type: "string", default: String(value) };
  }
  for (const [name, value] of Object.entries<string>(spec.strings ?? {})) {
    options[name] = { type: "string", default: value };
  }
  for (const name of spec.optional ?? []) options[name] = { type: "string" };
  for (const name of spec.flags ?? []) options[name] = { type: "boolean", default: false };
  const { values } = parseArgs({ args: Deno.args, options });
  const out: Record<string, unknown> = { ...values };
  for (const name of Object.keys(numbers)) {
    const n = Number(values[name]);
    if (!Number.isFinite(n)) throw new Error(`--${name} takes a number, not "${values[name]}"`);
    out[name] = n;
  }
  return out as
    & Record<N, number>
    & Record<S, string>
    & Record<O, string | undefined>
    & Record<F, boolean>;
}
