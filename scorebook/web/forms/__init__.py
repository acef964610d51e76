"""The pages' forms, a module per area (the deal forms apart: ``scorebook.web.deal_forms``).
They check the shape of the input; the services decide the rest. Views import them."""
