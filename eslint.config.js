import tseslint from "typescript-eslint";

/**
 * Lint rules the compiler alone does not enforce, type-aware (typescript-eslint's project service
 * reads tsconfig.json): a `switch` over a union (a format id, an event name) must name every member
 * or end in `default`, so a new format cannot be silently skipped; an assertion that changes
 * nothing is removed; an unused name is an error.
 */
export default tseslint.config(
  { ignores: ["dist/**", "data/**", "node_modules/**", ".langgraph_api/**", ".mcp-inspector/**", "history/migrations/**", "examples/**"] },
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      "@typescript-eslint/no-unnecessary-type-assertion": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
    },
  },
);
