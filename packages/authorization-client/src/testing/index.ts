// Test helpers for users of @fin/authorization-client.
export {};
