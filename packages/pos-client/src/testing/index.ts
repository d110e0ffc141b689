// Test helpers for users of @fin/pos-client.
export {};
