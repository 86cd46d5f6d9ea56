"""The figure and axes a plotting function draws on (Matplotlib imported on use)."""


def axes(ax, size):
    """``(figure, ax)``: those of ``ax`` if given, else a new figure of ``size``
    inches (``pyplot.subplots``, so Jupyter shows it at the end of the cell)."""
    if ax is not None:
        return ax.figure, ax
    from matplotlib import pyplot as plt

    return plt.subplots(figsize=size)
