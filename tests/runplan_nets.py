"""runplan_nets.py: the small models test_runplan.py runs memtris's plans on
(module:factory names for tools/fx2memtris.py and tools/runplan.py): an MLP
of six layers with ReLU, Tanh, GELU, Sigmoid and a BatchNorm (whose running
statistics the step changes in place), and a CNN of four convolutions with a
BatchNorm, an in-place ReLU, max pooling and Dropout (a random op). The test
gives batch and input shape: the activations outweigh the weights, so that
budgets of 60% and 80% have plans."""
from torch import nn


def mlp():
    return nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 64),
                         nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 64), nn.GELU(), nn.Linear(64, 64),
                         nn.Sigmoid(), nn.Linear(64, 10))


def cnn():
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(inplace=True),
                         nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.Tanh(),
                         nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.Dropout(0.25), nn.Linear(8 * 4 * 4, 10))


def wide():
    """Three Linear layers on a small batch: the weights, their gradients and Adam's state
    outweigh the activations, so that a budget of 40% needs them on the host."""
    return nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 10))


def drop():
    """An MLP whose Dropout masks a wide activation that the backward reads
    again anyway: its mask, made again from its generator state, is the
    cheapest way under the budget (test_runplan_rng.py)."""
    return nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Dropout(0.5), nn.Linear(256, 256), nn.Tanh(),
                         nn.Linear(256, 10))
