import { UsageError } from "../errors.js";
import type { Recipe, Rules } from "../types.js";
import type { Harness } from "./hosts.js";
import type { ScriptedReply } from "./script.js";

// Recipes with steps: what a person or a driver does to make the host fire each event.

export interface StepRun {
  /** The prompt; the driver names the step's scenario in it unless `raw`. */
  prompt?: string;
  raw?: boolean;
  /** Arguments the driver adds to the host's own non-interactive command. */
  args?: string[];
  /** The scripted model's replies, one per step of the conversation. */
  script?: ScriptedReply[];
  /** Further scenarios the step's conversation starts (a subagent's own conversation). */
  scenarios?: Record<string, ScriptedReply[]>;
  /** Files written into the project before the step, relative to it. */
  files?: Record<string, string>;
  env?: Record<string, string>;
  /** Continue the previous conversation instead of starting one. */
  continue?: boolean;
  /** Milliseconds to wait after the host exits, for hooks still running. */
  settleMs?: number;
  /** Files the driver writes while the host runs, after a pause (a settings change the host watches). */
  during?: { afterMs: number; files?: Record<string, string>; signal?: "SIGINT" | "SIGTERM" };
  /** Runs of the step while an expected event is still missing: for triggers the host fires unreliably. */
  attempts?: number;
  /** The host's own command, when the step is not a prompt (`--init-only`). */
  command?: string[];
  /**
   * Lines written to the host's standard input, each a JSON value on a line of its own (`{prompt}`
   * in a string is the step's prompt), kept open `holdMs` before it is closed: a host that reads
   * its conversation and control requests from standard input (claude -p --input-format stream-json).
   */
  stdin?: { lines: unknown[]; holdMs: number };
}

export interface RecipeStep {
  name: string;
  trigger: string;
  events: string[];
  run?: StepRun;
}

export interface DrivenRecipe extends Omit<Recipe, "steps"> {
  steps?: RecipeStep[];
}

/** The named recipe, else the harness's driven recipe, else its default. */
export function recipeFor(rules: Rules, harness: Harness, name: string | undefined): DrivenRecipe {
  const recipes = rules.recipes as DrivenRecipe[];
  if (name !== undefined) {
    const named = recipes.find((r) => r.name === name);
    if (!named) throw new UsageError(`no recipe named "${name}" (known: ${recipes.map((r) => r.name).join(", ")})`);
    if (named.harness !== harness) throw new UsageError(`the recipe ${name} is for ${named.harness}, not ${harness}`);
    return named;
  }
  const found = recipes.find((r) => r.name === `${harness}-driven`) ?? recipes.find((r) => r.harness === harness && r.default);
  if (!found) throw new UsageError(`no recipe for ${harness} in rules/recipes`);
  return found;
}

/** The checklist a person follows, one printed line an item: each step's trigger and the events it should produce. */
export function checklist(recipe: DrivenRecipe): string[] {
  const steps = recipe.steps ?? [{ name: recipe.name, trigger: recipe.description, events: recipe.events }];
  const lines = steps.flatMap((s, i) => [`  [ ] ${i + 1}. ${s.name}: ${s.trigger}`, `        expect: ${s.events.join(", ")}`]);
  for (const u of recipe.unreliable ?? []) lines.push(`  may also fire, not waited for: ${u.event} (${u.reason})`);
  return lines;
}
