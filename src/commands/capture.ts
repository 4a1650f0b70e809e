import type { Command } from "../command.js";

const help = `clear capture hook <harness> <Event> [--host-version V]
`;

export const captureCommand: Command = { help, run: async () => 2 };
