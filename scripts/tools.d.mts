import type { StdioOptions } from 'node:child_process';

export const REPO_ROOT: string;
export const PNPM_VERSION: string;
export function binEntry(pkg: string, bin?: string): string;
export function nodeTool(pkg: string, bin: string, args: readonly string[]): [string, string[]];
export function pnpmPath(): string | null;
export function npmCommand(args: readonly string[]): [string, string[]];
export function buildProjects(projects: readonly string[], options?: { stdio?: StdioOptions }): void;
export interface WorkspacePackage {
  readonly dir: string;
  readonly manifest: { readonly name: string; readonly version: string; readonly private?: boolean };
}
export function publishablePackages(): WorkspacePackage[];
export function packPackages(dest: string, options?: { stdio?: StdioOptions }): Map<string, string>;
