"""models.py: models built from torch.nn layers for fx2memtris.py, so that
torch.fx traces every op (nn.TransformerEncoderLayer's fast path does not trace).

bert_base_encoder: the BERT-base encoder, 12 layers, hidden 768, 12 heads, feed
forward 3072, for a sequence of 128 (input: [batch, 128, 768], the embeddings).

transformer_block: one such layer, hidden 256, 4 heads, feed forward 1024, for
a sequence of 64 (input: [batch, 64, 256])."""
import math

import torch
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self, hidden, heads, seq, dropout=0.1):
        super().__init__()
        self.heads, self.dh, self.seq, self.hidden = heads, hidden // heads, seq, hidden
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, hidden)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        shape = (-1, self.seq, self.heads, self.dh)
        q = self.query(x).view(shape).permute(0, 2, 1, 3)       # [B, heads, S, dh]
        k = self.key(x).view(shape).permute(0, 2, 3, 1)         # [B, heads, dh, S]
        v = self.value(x).view(shape).permute(0, 2, 1, 3)
        scores = torch.matmul(q, k) / math.sqrt(self.dh)        # [B, heads, S, S]
        probs = self.drop(torch.softmax(scores, dim=-1))
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous().view(-1, self.seq, self.hidden)
        return self.drop(self.out(ctx))


class EncoderLayer(nn.Module):
    def __init__(self, hidden, heads, ffn, seq):
        super().__init__()
        self.attention = SelfAttention(hidden, heads, seq)
        self.norm1 = nn.LayerNorm(hidden)
        self.ffn_in = nn.Linear(hidden, ffn)
        self.act = nn.GELU()
        self.ffn_out = nn.Linear(ffn, hidden)
        self.drop = nn.Dropout(0.1)
        self.norm2 = nn.LayerNorm(hidden)

    def forward(self, x):
        x = self.norm1(x + self.attention(x))
        return self.norm2(x + self.drop(self.ffn_out(self.act(self.ffn_in(x)))))


class Encoder(nn.Module):
    def __init__(self, layers=12, hidden=768, heads=12, ffn=3072, seq=128):
        super().__init__()
        self.layers = nn.ModuleList(EncoderLayer(hidden, heads, ffn, seq) for _ in range(layers))

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def bert_base_encoder():
    return Encoder(layers=12, hidden=768, heads=12, ffn=3072, seq=128)


def transformer_block():
    """One encoder layer, hidden 256, 4 heads, feed forward 1024, sequence 64
    (input: [batch, 64, 256]): fx2memtris.py's small training sample."""
    return Encoder(layers=1, hidden=256, heads=4, ffn=1024, seq=64)
