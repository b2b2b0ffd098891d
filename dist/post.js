import { createRequire as __gr_createRequire } from 'node:module';
const require = __gr_createRequire(import.meta.url);
import {
  hideEventPath
} from "./chunks/chunk-LVAHGTTV.js";
import "./chunks/chunk-JK6K75XX.js";

// src/action/post.ts
var restore = hideEventPath();
var { post } = await import("./chunks/post-step-YW5T3AVC.js");
restore();
void post();
