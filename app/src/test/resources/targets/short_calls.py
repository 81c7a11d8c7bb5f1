"""A loop calling one short function over and over: each call is a new frame at the same address."""


def short():
    return sum(range(300))


def main():
    print("READY", flush=True)
    while True:
        short()


main()
