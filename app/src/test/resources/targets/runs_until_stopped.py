"""Spins in one function until it is killed; prints READY once it runs."""
def spin_forever():
    print("READY", flush=True)
    n = 0
    while True:
        n += 1


spin_forever()
