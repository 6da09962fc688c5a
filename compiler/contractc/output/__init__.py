"""Compare and write: the output set, all-or-nothing writes, the journal, the proof of writing and the cache."""
