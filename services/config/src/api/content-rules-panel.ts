/** The sub-paths of `@controlpanels/content-rules`: the rules, and their actions and conditions. */
import { badRequest, clip, notFound, type HttpResult } from '@cms/shared';
import { z } from 'zod';
import type { ElementKind } from '../domain/rule-elements';
import { ruleFields, ruleUrl } from '../domain/rules';
import type { ConfigDeps } from './declarations';

/** The path parameters of the panel's routes after `content-rules`. */
export interface RulePath {
  rule?: string;
  kind?: ElementKind;
  idx?: number;
}

function parsed<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, body: unknown): T {
  const result = schema.safeParse(body);
  if (!result.success) {
    const errors = result.error.issues.slice(0, 10).map((i) => ({ field: i.path.join('.'), message: clip(i.message) }));
    throw badRequest('Invalid content rule', errors);
  }
  return result.data;
}

/** Both element sub-paths name the rule, its kind and (except to add one) the element's index. */
function element(path: RulePath): { rule: string; kind: ElementKind; idx: number } {
  if (path.rule === undefined || path.kind === undefined || path.idx === undefined)
    throw notFound('Resource not found');
  return { rule: path.rule, kind: path.kind, idx: path.idx };
}

export async function readRules(path: RulePath, publicUrl: string, deps: ConfigDeps): Promise<HttpResult> {
  if (path.rule === undefined) return { status: 200, body: await deps.rules.list(publicUrl) };
  if (path.kind === undefined) {
    return { status: 200, body: await deps.rules.render(await deps.rules.get(path.rule), publicUrl) };
  }
  const e = element(path);
  return { status: 200, body: await deps.rules.element(e.rule, e.kind, e.idx, publicUrl) };
}

export async function addRuleOrElement(
  path: RulePath,
  body: unknown,
  publicUrl: string,
  deps: ConfigDeps,
): Promise<HttpResult> {
  const rule =
    path.rule === undefined
      ? await deps.rules.create(parsed(ruleFields, body))
      : await deps.rules.addElement(path.rule, path.kind ?? 'action', body);
  return {
    status: 201,
    headers: { Location: ruleUrl(publicUrl, rule._id) },
    body: await deps.rules.render(rule, publicUrl),
  };
}

export async function changeRuleOrElement(path: RulePath, body: unknown, deps: ConfigDeps): Promise<HttpResult> {
  if (path.rule === undefined) throw notFound('Name the content rule to change');
  if (path.kind === undefined) await deps.rules.update(path.rule, parsed(ruleFields.partial(), body));
  else {
    const e = element(path);
    await deps.rules.changeElement(e.rule, e.kind, e.idx, body);
  }
  return { status: 204 };
}

export async function removeRuleOrElement(path: RulePath, deps: ConfigDeps): Promise<HttpResult> {
  if (path.rule === undefined) throw notFound('Name the content rule to delete');
  if (path.kind === undefined) await deps.rules.remove(path.rule);
  else {
    const e = element(path);
    await deps.rules.removeElement(e.rule, e.kind, e.idx);
  }
  return { status: 204 };
}
