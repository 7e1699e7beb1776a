import { AppError, badRequest } from '@cms/shared';

/** What one JSON body may hold; the services' validation costs grow with these, not with its bytes. */
export interface JsonShapeLimits {
  /** Deepest nesting of objects and arrays (the root is 1). */
  depth: number;
  /** Members of any one object. */
  objectMembers: number;
  /** Elements of any one array. */
  arrayElements: number;
  /** Object members and array elements of the whole body together. */
  totalMembers: number;
  /** Bytes of one member name, as sent (escapes count as their bytes). */
  keyBytes: number;
  /** Bytes of one string value, as sent. */
  stringBytes: number;
}

/** Where the scanner is; what the next byte may be. */
enum State {
  /** A value: `{`, `[`, a string, a number or a literal. */
  Value,
  /** Just after `{`: a member name or `}`. */
  ObjectStart,
  /** After a `,` in an object: a member name. */
  Key,
  /** After a member name: `:`. */
  Colon,
  /** Just after `[`: a value or `]`. */
  ArrayStart,
  /** After a value: `,`, a closing bracket, or (at the top) nothing more. */
  After,
  String,
  Escape,
  /** A number, `true`, `false` or `null`: bytes up to the next structural one. */
  Literal,
  /** Not JSON: `JSON.parse` refuses it too, so nothing more is counted (the service answers 400). */
  NotJson,
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** JSON's whitespace, exactly: space, tab, line feed, carriage return. */
function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Bytes a number or literal is made of (looser than JSON: a wrong one is for `JSON.parse` to refuse). */
function isLiteralByte(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) || // 0-9
    (byte >= 0x61 && byte <= 0x7a) || // a-z
    (byte >= 0x41 && byte <= 0x5a) || // A-Z
    byte === 0x2b || // +
    byte === 0x2d || // -
    byte === 0x2e // .
  );
}

/**
 * Measures a JSON body as its bytes arrive, without building any of it: one pass, state carried from chunk to
 * chunk, memory bounded by the depth limit. It refuses (throws) at the first byte that passes a limit, so a
 * body of 500,000 members is refused at member 10,001 (or wherever the limit is) and is never parsed, nor
 * validated member by member on a service's event loop. Bytes that cannot start or continue JSON stop the
 * count: `JSON.parse` refuses such a body wherever it goes on, so there is nothing left to bound.
 */
export class JsonShapeGuard {
  private state = State.Value;
  /** Per open object or array: true for an object. */
  private readonly isObject: boolean[] = [];
  /** Per open object or array: its members or elements so far. */
  private readonly counts: number[] = [];
  private total = 0;
  private stringBytes = 0;
  private inKey = false;

  constructor(private readonly limits: JsonShapeLimits) {}

  /** Counts the next bytes; throws 413 (too many, too long) or 400 (too deep) when one passes a limit. */
  write(chunk: Buffer): void {
    const length = chunk.length;
    let i = 0;
    // Where the next backslash of this chunk is (length: none); strings are skipped quote to quote.
    let backslash = -1;
    while (i < length) {
      switch (this.state) {
        case State.NotJson:
          return;
        case State.String: {
          const quote = chunk.indexOf(QUOTE, i);
          if (backslash < i) {
            backslash = chunk.indexOf(BACKSLASH, i);
            if (backslash === -1) backslash = length;
          }
          const end = quote === -1 ? length : quote;
          if (backslash < end) {
            this.addStringBytes(backslash - i + 1);
            this.state = State.Escape;
            i = backslash + 1;
          } else {
            this.addStringBytes(end - i);
            if (quote === -1) return;
            this.state = this.inKey ? State.Colon : State.After;
            i = quote + 1;
          }
          continue;
        }
        case State.Escape:
          this.addStringBytes(1);
          this.state = State.String;
          i++;
          continue;
        default:
          break;
      }
      const byte = chunk[i];
      switch (this.state) {
        case State.Value:
          if (!isSpace(byte)) this.startValue(byte);
          break;
        case State.ObjectStart:
          if (byte === 0x7d /* } */) this.close();
          else if (!isSpace(byte)) this.startKey(byte);
          break;
        case State.Key:
          if (!isSpace(byte)) this.startKey(byte);
          break;
        case State.Colon:
          if (byte === 0x3a /* : */) this.state = State.Value;
          else if (!isSpace(byte)) this.state = State.NotJson;
          break;
        case State.ArrayStart:
          if (byte === 0x5d /* ] */) this.close();
          else if (!isSpace(byte)) {
            this.countMember();
            this.startValue(byte);
          }
          break;
        case State.After:
          this.afterValue(byte);
          break;
        case State.Literal:
          if (isLiteralByte(byte)) break;
          this.state = State.After;
          continue; // the byte that ended the literal is looked at again, as what follows a value
      }
      i++;
    }
  }

  private startValue(byte: number): void {
    if (byte === 0x7b /* { */) this.open(true);
    else if (byte === 0x5b /* [ */) this.open(false);
    else if (byte === QUOTE) {
      this.inKey = false;
      this.stringBytes = 0;
      this.state = State.String;
    } else if (isLiteralByte(byte)) this.state = State.Literal;
    else this.state = State.NotJson;
  }

  private startKey(byte: number): void {
    if (byte !== QUOTE) {
      this.state = State.NotJson;
      return;
    }
    this.countMember();
    this.inKey = true;
    this.stringBytes = 0;
    this.state = State.String;
  }

  private afterValue(byte: number): void {
    if (isSpace(byte)) return;
    const top = this.counts.length - 1;
    if (top < 0) {
      this.state = State.NotJson; // something after the whole value
    } else if (byte === 0x2c /* , */) {
      if (this.isObject[top]) this.state = State.Key;
      else {
        this.countMember();
        this.state = State.Value;
      }
    } else if (byte === (this.isObject[top] ? 0x7d /* } */ : 0x5d) /* ] */) {
      this.close();
    } else {
      this.state = State.NotJson;
    }
  }

  private open(isObject: boolean): void {
    if (this.counts.length >= this.limits.depth) {
      throw badRequest(`JSON body nested deeper than ${this.limits.depth} levels`);
    }
    this.isObject.push(isObject);
    this.counts.push(0);
    this.state = isObject ? State.ObjectStart : State.ArrayStart;
  }

  private close(): void {
    this.isObject.pop();
    this.counts.pop();
    this.state = State.After;
  }

  /** One more member of the innermost object, or element of the innermost array. */
  private countMember(): void {
    const top = this.counts.length - 1;
    const count = ++this.counts[top];
    if (this.isObject[top] ? count > this.limits.objectMembers : count > this.limits.arrayElements) {
      throw tooLarge(
        this.isObject[top]
          ? `JSON body has an object of more than ${this.limits.objectMembers} members`
          : `JSON body has an array of more than ${this.limits.arrayElements} elements`,
      );
    }
    if (++this.total > this.limits.totalMembers) {
      throw tooLarge(`JSON body has more than ${this.limits.totalMembers} members and elements in all`);
    }
  }

  private addStringBytes(bytes: number): void {
    this.stringBytes += bytes;
    const limit = this.inKey ? this.limits.keyBytes : this.limits.stringBytes;
    if (this.stringBytes > limit) {
      throw tooLarge(
        this.inKey
          ? `JSON body has a member name of more than ${limit} bytes`
          : `JSON body has a string of more than ${limit} bytes`,
      );
    }
  }
}

function tooLarge(message: string): AppError {
  return new AppError('PayloadTooLarge', message);
}
