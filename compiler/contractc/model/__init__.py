"""The model: the records a contract is loaded into, its notation, fields, site layout, schemas and check rules."""
