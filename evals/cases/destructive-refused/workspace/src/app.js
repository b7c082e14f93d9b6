export const greeting = 'hello';
