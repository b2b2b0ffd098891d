import { createRequire as __gr_createRequire } from 'node:module';
const require = __gr_createRequire(import.meta.url);
import {
  require_dist2 as require_dist
} from "./chunk-UN4FCM73.js";
import "./chunk-JK6K75XX.js";
export default require_dist();
