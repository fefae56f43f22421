"""One sub-package per dataset: builder, schema, checksums and card source."""
