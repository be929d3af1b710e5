"""Small libraries written on funcgrad, after ``jax.example_libraries``: optimizers."""
