class _a {}
