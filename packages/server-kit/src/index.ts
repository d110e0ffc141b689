// Public entry point of @fin/server-kit.
export {};
