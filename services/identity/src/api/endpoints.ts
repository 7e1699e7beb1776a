import { emailNotification } from './email-notification';
import { emailSend } from './email-send';
import { groups } from './groups';
import { login } from './login';
import { loginRenew } from './login-renew';
import { logout } from './logout';
import { portrait } from './portrait';
import { principals } from './principals';
import { roles } from './roles';
import { users } from './users';
import { userschema } from './userschema';

/** Every HTTP endpoint of the identity service; the gateway's routing table is generated from this list. */
export const ENDPOINTS = [
  login,
  loginRenew,
  logout,
  users,
  portrait,
  groups,
  roles,
  principals,
  userschema,
  emailSend,
  emailNotification,
];
