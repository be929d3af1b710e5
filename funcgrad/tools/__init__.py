"""Tools around funcgrad: Graphviz output (`dot`) and the primitive list (`list_primitives`)."""
