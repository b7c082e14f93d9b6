export const greeting = "hello";
