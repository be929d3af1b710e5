"""Composable transforms over functions written with funcgrad.numpy."""
from .custom import custom_vjp
from .reverse import grad, value_and_grad, vjp
from .stop_gradient import stop_gradient
