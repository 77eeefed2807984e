import { expect } from 'vitest';
import { RecipeError } from '../../src/errors/index.js';

/** The RecipeError a promise rejects with (the test fails when it resolves or rejects with anything else). */
export async function caught(p: Promise<unknown>): Promise<RecipeError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(RecipeError);
    return err as RecipeError;
  }
  throw new Error('expected a rejection');
}
