"""A club's whole record taken out (the export ZIP), a person's own data taken out, and a
person's data erased (the pseudonym that replaces a name everywhere)."""
