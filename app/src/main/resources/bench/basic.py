# Workload "basic": a mixed loop of recursion, arithmetic, string work and nested closures,
# with a short sleep each round.
import math
import time


def recursive_fib(n):
    return n if n <= 1 else recursive_fib(n - 1) + recursive_fib(n - 2)


def arithmetic():
    total = 0.0
    for i in range(1000):
        total += math.sqrt(i) * math.cos(i)
    return total


def short_loop():
    return sum(i for i in range(100))


def text_work():
    words = ("lorem ipsum dolor " * 100).split()
    return " ".join(sorted(words, reverse=True))


def nested():
    def outer():
        def middle():
            def inner():
                return arithmetic()
            return inner()
        return middle()
    return outer()


def main_loop():
    round_number = 0
    while True:
        round_number += 1
        if round_number % 50 == 0:
            recursive_fib(20)
        elif round_number % 10 == 0:
            nested()
        elif round_number % 5 == 0:
            text_work()
        else:
            short_loop()
        time.sleep(0.001)


main_loop()
