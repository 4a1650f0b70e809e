import { parentPort, workerData } from "node:worker_threads";
import { homeGrammar, userNamePattern } from "../homes.js";
import type { ControlAnswer, ControlNames, ControlRules } from "./control-ahead.js";
import { scanEngine, silentOn } from "./scan.js";

// The scan's control, run on a thread of its own (control-ahead.ts). The engines are made here from
// what the line makes them from: the home grammar as sittingNames makes it, the names pattern as sittingEngine does.
const rules = workerData as ControlRules;
const named = new Promise<ControlNames>((given) => parentPort?.once("message", given));
// While the line reads the sitting and learns its names, the control runs once without them: the
// scanner's code is compiled and warm when the verdicts that count are asked for.
await silentOn(scanEngine(rules.secrets, homeGrammar(rules.homes), null, rules.structure));
const names = await named;
const grammar = homeGrammar(rules.homes, names.all);
const answer: ControlAnswer = { withNames: await silentOn(scanEngine(rules.secrets, grammar, userNamePattern(names.checked), rules.structure)) };
if (names.guard) answer.guard = await silentOn(scanEngine(rules.secrets, grammar, null, rules.structure));
parentPort?.postMessage(answer);
