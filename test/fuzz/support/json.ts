/**
 * JSON bodies as the fuzzer builds them: a small tree that can say what `JSON.stringify` cannot (an own
 * `__proto__` member, a number of a million digits, nesting a hundred thousand deep, a string of megabytes)
 * and is cheap to keep and print until the request is sent.
 */

/** An object as its members in order, so any name (`__proto__`, `constructor`) is an ordinary member. */
export class Obj {
  constructor(readonly members: ReadonlyArray<readonly [string, Value]>) {}
}

/** JSON text written as it is: numbers such as `1e400` or `-0`, escapes such as `"\ud800"`. */
export class Raw {
  constructor(readonly text: string) {}
}

/** A string of `length` copies of `unit`, made when the body is sent. */
export class Huge {
  constructor(
    readonly length: number,
    readonly unit: string,
  ) {}
}

/** `depth` nested arrays or objects around `inner`, made when the body is sent. */
export class Deep {
  constructor(
    readonly depth: number,
    readonly shape: 'array' | 'object',
    readonly inner: Value = null,
  ) {}
}

/** Many copies of one value, as an array or as an object of distinct member names. */
export class Wide {
  constructor(
    readonly count: number,
    readonly shape: 'array' | 'object',
    readonly item: Value,
  ) {}
}

export type Value = null | boolean | number | string | Value[] | Obj | Raw | Huge | Deep | Wide;

export function obj(members: Record<string, Value>): Obj {
  return new Obj(Object.entries(members));
}

/** The JSON text of a value (the parts too large to print are made here). */
export function serialize(value: Value): string {
  const out: string[] = [];
  write(value, out);
  return out.join('');
}

function write(value: Value, out: string[]): void {
  if (value === null || typeof value === 'boolean') out.push(String(value));
  else if (typeof value === 'number') out.push(Number.isFinite(value) ? JSON.stringify(value) : 'null');
  else if (typeof value === 'string') out.push(JSON.stringify(value));
  else if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, i) => {
      if (i > 0) out.push(',');
      write(item, out);
    });
    out.push(']');
  } else if (value instanceof Obj) {
    out.push('{');
    value.members.forEach(([name, item], i) => {
      if (i > 0) out.push(',');
      out.push(JSON.stringify(name), ':');
      write(item, out);
    });
    out.push('}');
  } else if (value instanceof Raw) out.push(value.text);
  else if (value instanceof Huge)
    out.push(JSON.stringify(value.unit.repeat(Math.ceil(value.length / value.unit.length))));
  else if (value instanceof Deep) {
    const open = value.shape === 'array' ? '[' : '{"a":';
    const close = value.shape === 'array' ? ']' : '}';
    out.push(open.repeat(value.depth));
    write(value.inner, out);
    out.push(close.repeat(value.depth));
  } else {
    const item = serialize(value.item);
    if (value.shape === 'array') out.push('[', Array(value.count).fill(item).join(','), ']');
    else out.push('{', Array.from({ length: value.count }, (_, i) => `"k${i}":${item}`).join(','), '}');
  }
}

/** A short description of a value for a report: the large parts by their size. */
export function describe(value: Value, budget = 300): string {
  const text = summary(value);
  return text.length > budget ? `${text.slice(0, budget)}…` : text;
}

function summary(value: Value): string {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'string'
      ? JSON.stringify(value.length > 60 ? value.slice(0, 60) + '…' : value)
      : String(value);
  }
  if (Array.isArray(value)) return `[${value.map(summary).join(',')}]`;
  if (value instanceof Obj) return `{${value.members.map(([k, v]) => `${JSON.stringify(k)}:${summary(v)}`).join(',')}}`;
  if (value instanceof Raw) return value.text.length > 60 ? `${value.text.slice(0, 60)}…` : value.text;
  if (value instanceof Huge) return `<${value.length} × ${JSON.stringify(value.unit)}>`;
  if (value instanceof Deep) return `<${value.depth} deep ${value.shape} of ${summary(value.inner)}>`;
  return `<${value.count} wide ${value.shape} of ${summary(value.item)}>`;
}
