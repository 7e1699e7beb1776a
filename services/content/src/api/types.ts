/**
 * `@types`: the types users may create, each saying whether the caller may add it here; `@types/<type>` is the
 * JSON schema of one type, which clients draw add and edit forms from. Logged-in callers only, as the reference.
 */
import { BASIC_CHALLENGE, clip, notFound, unauthorized } from '@cms/shared';
import { z } from 'zod';
import { SCHEMA_MEDIA_TYPE, typeSchema } from '../domain/type-schema';
import { SITE_ROOT_TYPE } from '../domain/types';
import { endpoint, operation } from './declarations';

/** The reference's name of the site root's type, accepted as an alias (addendum §8). */
const TYPE_ALIASES: Readonly<Record<string, string>> = { 'Plone Site': SITE_ROOT_TYPE };

export const types = endpoint({
  name: 'types',
  service: 'content',
  context: 'content',
  operations: {
    GET: operation({
      summary: 'The addable types and whether the caller may add each here; with a type name, its JSON schema',
      paths: ['', ':type'],
      permission: 'View',
      params: z.object({ type: z.string().max(200).optional() }),
      handle: async (call, { expansion, types: registry }) => {
        const { type: name } = call.params;
        if (name === undefined) return { status: 200, body: await expansion.expand('types', call, call.context) };
        if (!call.principal) throw unauthorized('Authentication required to read type schemas', BASIC_CHALLENGE);
        const type = registry.find(Object.hasOwn(TYPE_ALIASES, name) ? TYPE_ALIASES[name] : name);
        if (!type) throw notFound(`No content type ${clip(name)}`);
        return {
          status: 200,
          body: typeSchema(type, call.publicUrl),
          headers: { 'Content-Type': SCHEMA_MEDIA_TYPE },
        };
      },
    }),
  },
});
