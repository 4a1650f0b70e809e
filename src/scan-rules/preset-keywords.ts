import { pushAll } from "../collections.js";
import { wordsPattern } from "../regex.js";

// What every match of each rule of secretlint's recommended preset (12.0.0) holds, in lower case:
// one of its rule's words. A rule can report nothing in a text that holds none of its words, raw
// or decoded, so it is not run on it (src/passes/scan.ts). The words are read off each rule's patterns:
// the literal every alternative of a pattern spells (AWS's key id prefixes and the words "secret"
// and "account" its other two patterns need; a token's prefix; "://" before a URL's user and
// password; "private key" of a PEM block; "private_key" a service account's JSON names). A rule
// missing here is run on every text.

export const PRESET_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  "@secretlint/secretlint-rule-aws": ["a3t", "akia", "agpa", "aida", "aroa", "aipa", "anpa", "anva", "asia", "secret", "account"],
  "@secretlint/secretlint-rule-gcp": ["private_key"],
  "@secretlint/secretlint-rule-privatekey": ["private key"],
  "@secretlint/secretlint-rule-npm": ["x-oauth-basic", "_authtoken", "npm_"],
  "@secretlint/secretlint-rule-basicauth": ["://"],
  "@secretlint/secretlint-rule-slack": ["xoxb", "xoxp", "xapp", "xoxa", "xoxo", "xoxr", "hooks.slack.com"],
  "@secretlint/secretlint-rule-sendgrid": ["sg."],
  "@secretlint/secretlint-rule-shopify": ["shppa_", "shpca_", "shpat_", "shpss_"],
  "@secretlint/secretlint-rule-github": ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
  "@secretlint/secretlint-rule-gitlab": ["glpat-"],
  "@secretlint/secretlint-rule-grafana": ["glc_", "glsa_"],
  "@secretlint/secretlint-rule-openai": ["t3blbkfj"],
  "@secretlint/secretlint-rule-anthropic": ["sk-ant-api0"],
  "@secretlint/secretlint-rule-groq": ["gsk_"],
  "@secretlint/secretlint-rule-huggingface": ["hf_"],
  "@secretlint/secretlint-rule-linear": ["lin_api_"],
  "@secretlint/secretlint-rule-notion": ["ntn_"],
  "@secretlint/secretlint-rule-1password": ["ops_ey"],
  "@secretlint/secretlint-rule-database-connection-string": ["mongodb", "mysql", "postgres"],
  "@secretlint/secretlint-rule-hashicorp-vault": ["hvs.", "hvb.", "hvr."],
  "@secretlint/secretlint-rule-vercel": ["vcp_", "vci_", "vca_", "vcr_", "vck_"],
  "@secretlint/secretlint-rule-databricks": ["dapi"],
  "@secretlint/secretlint-rule-docker": ["dckr_pat_"],
  "@secretlint/secretlint-rule-figma": ["figd_"],
};

/**
 * A pattern for lower-case text that finds a word of any of the rules; null when a rule has no
 * words listed, and the preset is run on every text.
 */
export function presetKeywords(ruleIds: readonly string[]): RegExp | null {
  const words: string[] = [];
  for (const id of ruleIds) {
    const listed = PRESET_KEYWORDS[id];
    if (listed === undefined || listed.length === 0) return null;
    pushAll(words, listed);
  }
  return new RegExp(wordsPattern(words));
}
