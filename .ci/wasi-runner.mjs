// Runs a wasm32-wasip1 program (a `cargo test` binary) under Node's WASI.
//
// Used as cargo's runner: CARGO_TARGET_WASM32_WASIP1_RUNNER="node --no-warnings .../wasi-runner.mjs".
// Cargo appends the .wasm file and the program's arguments. The whole file system is visible
// (`/` and the current directory are preopened), as for a native test binary, and the exit code
// is the program's; a trap (a panic: wasm32-wasip1 aborts) is an uncaught error, so node fails.
import { readFile } from "node:fs/promises";
import process from "node:process";
import { WASI } from "node:wasi";

const [file, ...args] = process.argv.slice(2);
if (!file) {
    console.error("usage: node wasi-runner.mjs program.wasm [arguments...]");
    process.exit(2);
}
const wasi = new WASI({
    version: "preview1",
    args: [file, ...args],
    env: process.env,
    preopens: { "/": "/", ".": process.cwd() },
    returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(file));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
