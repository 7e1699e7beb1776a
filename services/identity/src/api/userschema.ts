/**
 * `@userschema` and `@userschema/registration`: the JSON schema of the user fields, as the personal
 * information and registration forms of clients (Volto) render them. The fields are those `@users` stores.
 */
import { clip, notFound } from '@cms/shared';
import { z } from 'zod';
import { endpoint, operation } from './declarations';

type Property = Record<string, unknown>;

const USER_FIELDS: Record<string, Property> = {
  fullname: {
    description: 'Enter full name, for example, John Smith.',
    factory: 'Text line (String)',
    title: 'Full Name',
    type: 'string',
  },
  email: {
    description: 'We will use this address if you need to recover your password',
    factory: 'Email',
    title: 'Email',
    type: 'string',
    widget: 'email',
  },
  home_page: {
    description: 'The URL for your external home page, if you have one.',
    factory: 'URL',
    title: 'Home page',
    type: 'string',
    widget: 'url',
  },
  description: {
    description:
      'A short overview of who you are and what you do. Will be displayed on your author page, linked from the items you create.',
    factory: 'Text',
    title: 'Biography',
    type: 'string',
    widget: 'textarea',
  },
  location: {
    description: 'Your location - either city and country - or in a company setting, where your office is located.',
    factory: 'Text line (String)',
    title: 'Location',
    type: 'string',
  },
  portrait: {
    description:
      'To add or change the portrait: click the "Browse" button; select a picture of yourself. Recommended image size is 75 pixels wide by 100 pixels tall.',
    factory: 'Image',
    properties: {
      'portrait.contentType': {
        default: '',
        description: 'The content type identifies the type of data.',
        factory: 'Text line (String)',
        title: 'Content Type',
        type: 'string',
      },
      'portrait.data': {
        default: '',
        description: 'The actual content of the object.',
        factory: 'Text line (String)',
        title: 'Data',
        type: 'string',
      },
      'portrait.filename': {
        description: '',
        factory: 'Text line (String)',
        title: 'Filename',
        type: 'string',
      },
    },
    title: 'Portrait',
    type: 'object',
  },
};

const REGISTRATION_FIELDS: Record<string, Property> = {
  fullname: USER_FIELDS.fullname!,
  email: USER_FIELDS.email!,
  username: {
    description:
      "Enter a user name, usually something like 'jsmith'. No spaces or special characters. Usernames and passwords are case sensitive, make sure the caps lock key is not enabled. This is the name used to log in.",
    factory: 'Text line (String)',
    title: 'User Name',
    type: 'string',
  },
  password: {
    description: 'Enter your new password.',
    factory: 'Password',
    title: 'Password',
    type: 'string',
    widget: 'password',
  },
  password_ctl: {
    description: 'Re-enter the password. Make sure the passwords are identical.',
    factory: 'Password',
    title: 'Confirm password',
    type: 'string',
    widget: 'password',
  },
};

function schema(properties: Record<string, Property>, required: string[]) {
  return {
    fieldsets: [{ behavior: 'cms', fields: Object.keys(properties), id: 'default', title: 'Default' }],
    properties,
    required,
    type: 'object',
  };
}

export const userschema = endpoint({
  name: 'userschema',
  service: 'identity',
  context: 'site-root',
  operations: {
    GET: operation({
      summary: 'The schema of the user fields, or of the registration form',
      paths: ['', ':form'],
      permission: { public: 'the forms’ fields are no secret: the registration form is shown to anonymous visitors' },
      params: z.object({ form: z.string().max(100).optional() }),
      handle: async (call) => {
        if (call.params.form !== undefined && call.params.form !== 'registration') {
          throw notFound(`No user schema named "${clip(call.params.form)}"`);
        }
        return {
          status: 200,
          headers: { 'Content-Type': 'application/json+schema' },
          body:
            call.params.form === 'registration'
              ? schema(REGISTRATION_FIELDS, ['email', 'username', 'password', 'password_ctl'])
              : schema(USER_FIELDS, ['email']),
        };
      },
    }),
  },
});
